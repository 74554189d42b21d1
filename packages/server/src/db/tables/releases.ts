import type { Flag, Iso, Json } from './columns.ts';

/** Releases and their files: the blobs they are made of, the deploys that bring them, the branches they were served by. */
export interface ReleaseTables {
  releases: {
    id: string;
    site_id: string;
    name: string;
    forms: Json;
    file_count: number;
    total_size: number;
    /** The rules of its `_redirects` and `_headers`, parsed at upload (JSON: {redirects, headers}). */
    rules: Json;
    /** JSON array of the problems found in those files (RuleProblem). */
    rule_problems: Json;
    created_at: Iso;
    /** Its label in its permanent address, `{slug}--{site}`; unique within the site (migration 028). */
    slug: string;
    /** Where it came from (ReleaseSource, JSON): commit, branch, pull request, CI run. */
    source: Json;
    /** Who uploaded it (ReleaseUploader, JSON); null for releases from before migration 028. */
    uploader: Json | null;
    upload_ms: number | null;
    /** Files and bytes the organization had not stored before this release. */
    new_files: number | null;
    new_bytes: number | null;
    /** The password its own address asks for (migration 031); null: the site's, if any. */
    password_hash: string | null;
    password_version: string | null;
  };
  blobs: {
    hash: string;
    size: number;
    br_size: number | null;
    gz_size: number | null;
    /** 1 while its brotli and gzip variants are still to be made (see migration 019). */
    variants_pending: Flag;
    created_at: Iso;
    /** 1 once the collection found it unused: its files may be gone; a deploy stores it again (migration 026). */
    dead: Flag;
  };
  /** The blobs each organization has uploaded itself: only those count as "already there" for it. */
  org_blobs: { org_id: string; hash: string; created_at: Iso };
  release_files: { release_id: string; path: string; hash: string; size: number };
  deploys: {
    id: string;
    site_id: string;
    name: string;
    branches: Json;
    actor_id: string | null;
    created_at: Iso;
    expires_at: Iso;
    /** Set when the deploy became this release. */
    release_id: string | null;
    /** How long after the release its branches expire (`14d`); null: they do not. */
    branch_expiry: string | null;
    /** 1: make a release even when its files equal those the branches serve. */
    force: Flag;
    /** The release's source and uploader, carried to it (see `releases`). */
    source: Json;
    uploader: Json | null;
    /** 1: the release goes to no branch. */
    draft: Flag;
  };
  deploy_files: {
    deploy_id: string;
    path: string;
    hash: string;
    size: number;
    /** 1: the organization held the blob when the manifest was recorded; finalise checks the others. */
    held: Flag;
  };
  /** Deploys that ended without a release, and why (migration 029); pruned by retention. */
  failed_deploys: {
    id: string;
    site_id: string;
    name: string;
    branches: Json;
    uploader: Json | null;
    source: Json;
    /** The stable error code its caller got (`DISK_FULL`), or `DEPLOY_EXPIRED` for one abandoned. */
    code: string;
    message: string;
    /** JSON array of its log lines: what it was doing, then why it stopped. */
    log: Json;
    started_at: Iso;
    failed_at: Iso;
  };
  branch_releases: { branch_id: string; release_id: string; set_at: Iso };
}
