/** A file of a release: its path in the release and its content, by hash and size. */
export interface ReleaseFile {
  path: string;
  hash: string;
  size: number;
}
