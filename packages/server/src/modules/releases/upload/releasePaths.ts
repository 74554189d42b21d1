/** Why a path cannot join a release: it is there already, or a name would be a file and a folder. */
export type PathClash = { kind: 'duplicate' } | { kind: 'fileAndFolder'; name: string };

function parentsOf(path: string) {
  const parents: string[] = [];
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    parents.push(path.slice(0, slash));
  }
  return parents;
}

/**
 * The paths of a release as they arrive, from an archive or a manifest. A release is a tree: no
 * path twice, and no name that is a file and also a folder (`a` and `a/b`), which the edge could
 * not serve both of and a download of the site could not write.
 */
export class ReleasePaths {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();

  get fileCount() {
    return this.files.size;
  }

  addFile(path: string): PathClash | null {
    if (this.files.has(path)) return { kind: 'duplicate' };
    if (this.folders.has(path)) return { kind: 'fileAndFolder', name: path };
    const clash = this.addFolders(parentsOf(path));
    if (clash) return clash;
    this.files.add(path);
    return null;
  }

  addFolder(path: string): PathClash | null {
    return this.addFolders([...parentsOf(path), path]);
  }

  private addFolders(folders: string[]): PathClash | null {
    const file = folders.find((folder) => this.files.has(folder));
    if (file !== undefined) return { kind: 'fileAndFolder', name: file };
    for (const folder of folders) this.folders.add(folder);
    return null;
  }
}
