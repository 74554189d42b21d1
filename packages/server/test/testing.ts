/**
 * `@wharf/server/testing`: what the other packages' tests and benchmarks use of the server's —
 * its test harness, clients and peers, and the few parts a benchmark drives directly (the
 * database, the routing table). They import this entry point, never a path inside the server.
 */
export { openDb } from '../src/db/connection.ts';
export type { Database, Db } from '../src/db/schema.ts';
export { RoutingTable } from '../src/edge/routingTable.ts';
export { newId, randomString } from '../src/lib/ids.ts';
export * from './archives.ts';
export * from './certificates.ts';
export * from './client.ts';
export * from './codeHostPeers.ts';
export * from './dnsPeer.ts';
export * from './domains.ts';
export * from './gitServer.ts';
export * from './harness.ts';
export * from './httpsClient.ts';
export * from './oidcPeer.ts';
export * from './pebble.ts';
export { makeBaseImages, NODE_IMAGE, podmanWorks } from './podman.ts';
export * from './s3Peer.ts';
export * from './siteClient.ts';
export * from './smallDisk.ts';
export * from './wholeAnswer.ts';
export * from './world.ts';
