import { idPrefix } from '../../platform/ids/ids';

/**
 * The usage log holds two kinds of charge: a task's, under the task's ID, and a priced call's (a
 * synchronous operation with no task record, such as a session operation), under its hold's
 * reference. Counts of "tasks" count the first kind only.
 */
const TASK_PREFIX = idPrefix('task');

/** SQL (SQLite and PostgreSQL): true for a usage row of a task; `alias` names the usage table. */
export function isTaskUsageSql(alias: string): string {
  return `SUBSTR(${alias}.task_id, 1, ${TASK_PREFIX.length}) = '${TASK_PREFIX}'`;
}
