import type { DeployedRelease, ReleaseSource } from '@wharf/contract';

/** Where a release goes: the site, the release's name, the branches that will serve it. */
export interface ReleaseTarget {
  siteId: string;
  name: string;
  branches: string[];
  /** How long until the branches delete themselves (`14d`); null: they stay (an expiry they had is cleared). */
  expires: string | null;
  /** Make a release even when the files equal those of the release the branches serve. */
  force: boolean;
  /** A release no branch serves (`branches` is empty). */
  draft: boolean;
  source: ReleaseSource;
}

/** What an upload did: the release, how it travelled and how much of it had to. */
export interface UploadOutcome {
  release: DeployedRelease;
  /** `incremental`: only the files the server lacked; `archive`: the whole folder as one tar.gz. */
  method: 'incremental' | 'archive';
  uploaded: { files: number; bytes: number };
  /** Request bodies sent, manifest and multipart framing included. */
  sentBytes: number;
}

export const totalSize = (files: { size: number }[]) => files.reduce((sum, file) => sum + file.size, 0);
