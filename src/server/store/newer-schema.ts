/**
 * A database a newer server migrated: its tables may mean what this version cannot know, and
 * writing them could lose data, so the store refuses to open it.
 */
export function newerSchema(found: number, known: number): Error {
  return new Error(
    `this database was migrated by a newer version of the server (schema version ${found}; this version knows up to ${known}): run the newer version, or restore a backup taken before the upgrade`,
  );
}
