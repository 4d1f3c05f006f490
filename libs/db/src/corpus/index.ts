// The tenant's corpus: collections, their documents, and source snapshots (issue 26, decision 0093).
export * from './collections';
export * from './documents';
export * from './snapshots';
