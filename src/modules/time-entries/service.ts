// Time entries (§19): manual entries and timers. A user has at most one running timer per
// workspace: starting one stops theirs in the same batch, and the insert is guarded on "none
// running" (and the partial unique index behind it), so concurrent starts leave exactly one running.
// Members change their own entries, admins anyone's; an entry an invoice bills is locked.
import { and, desc, eq, gte, isNotNull, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import { clients, memberships, projects, timeEntries, users } from '../../db/schema';
import { ApiError, invalidField, invalidState, notFound } from '../../errors';
import { hasRole, inWorkspace, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { changedRows, insertIf, retryOnRace } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { referencedProject } from '../../lib/references';
import { nowIso, todayIn } from '../../lib/time';
import { exactFigure, sumFromSql } from '../../lib/money';
import { changedAttributes, recordEvent } from '../events/record';
import { amountForSql, MAX_ENTRY_SECONDS, MIN_ENTRY_SECONDS, projectRounding, roundDuration, roundDurationSql } from './rounding';
import type { CreateTimeEntryInput, SummaryFilter, TimeEntryFilter, UpdateTimeEntryInput } from './schemas';

export type TimeEntryRow = typeof timeEntries.$inferSelect;
type ProjectRow = typeof projects.$inferSelect;

/** An entry with what it shows from elsewhere: its user's name, its project's client and rounding. */
export type TimeEntryView = {
  entry: TimeEntryRow;
  userName: string | null;
  clientId: string | null;
  roundingMinutes: number | null;
  roundingMode: 'up' | 'nearest' | 'down' | null;
};

export function serializeTimeEntry(view: TimeEntryView) {
  const { entry } = view;
  const running = entry.durationSeconds === null;
  const rounding = projectRounding({ timeRoundingMinutes: view.roundingMinutes, timeRoundingMode: view.roundingMode });
  return {
    id: entry.id,
    user: { id: entry.userId, name: view.userName },
    project_id: entry.projectId,
    client_id: view.clientId,
    task: entry.task,
    notes: entry.notes,
    spent_date: entry.spentDate,
    started_at: entry.startedAt,
    stopped_at: entry.stoppedAt,
    duration_seconds: entry.durationSeconds,
    billable_seconds: running ? null : entry.billable ? roundDuration(entry.durationSeconds!, rounding) : 0,
    billable: entry.billable,
    rate: entry.rate,
    currency: entry.currency,
    is_running: running,
    invoice_id: entry.invoiceId,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  };
}

const viewOf = (entry: TimeEntryRow, project: ProjectRow, userName: string | null): TimeEntryView => ({
  entry, userName, clientId: project.clientId, roundingMinutes: project.timeRoundingMinutes, roundingMode: project.timeRoundingMode,
});

function selectViews(ctx: WorkspaceContext) {
  return ctx.db
    .select({
      entry: timeEntries,
      userName: users.name,
      clientId: projects.clientId,
      roundingMinutes: projects.timeRoundingMinutes,
      roundingMode: projects.timeRoundingMode,
    })
    .from(timeEntries)
    .innerJoin(projects, eq(projects.id, timeEntries.projectId))
    .leftJoin(users, eq(users.id, timeEntries.userId));
}

const BOUNDS = 'An entry lasts from 1 second to 24 hours.';
const seconds = (from: string, to: string) => Math.floor((Date.parse(to) - Date.parse(from)) / 1000);
const plusSeconds = (at: string, s: number) => new Date(Date.parse(at) + s * 1000).toISOString();

function checkSpan(startedAt: string, stoppedAt: string, field: string): number {
  const span = seconds(startedAt, stoppedAt);
  if (span < MIN_ENTRY_SECONDS || span > MAX_ENTRY_SECONDS) throw invalidField(field, `${BOUNDS} stopped_at must be 1 s to 24 h after started_at.`);
  return span;
}

/** A running timer's start: not in the future, and not so long ago that it could not be stopped. */
function checkTimerStart(startedAt: string, now: string) {
  if (startedAt > now) throw invalidField('started_at', 'A timer cannot start in the future.');
  if (seconds(startedAt, now) > MAX_ENTRY_SECONDS) throw invalidField('started_at', `${BOUNDS} This timer would already be over 24 hours.`);
}

type Times = Pick<TimeEntryRow, 'startedAt' | 'stoppedAt' | 'durationSeconds'>;

/** What a new entry's times are: a duration, a span, or (neither) a timer running from now or started_at. */
function timesOf(input: CreateTimeEntryInput, now: string): Times {
  const { duration_seconds: duration, started_at: startedAt, stopped_at: stoppedAt } = input;
  if (duration !== undefined && stoppedAt !== undefined) throw invalidField('duration_seconds', 'Give duration_seconds or started_at and stopped_at, not both.');
  if (stoppedAt !== undefined && startedAt === undefined) throw invalidField('started_at', 'stopped_at needs started_at.');
  if (duration !== undefined) return { startedAt: startedAt ?? null, stoppedAt: startedAt ? plusSeconds(startedAt, duration) : null, durationSeconds: duration };
  if (startedAt !== undefined && stoppedAt !== undefined) return { startedAt, stoppedAt, durationSeconds: checkSpan(startedAt, stoppedAt, 'stopped_at') };
  const start = startedAt ?? now;
  checkTimerStart(start, now);
  return { startedAt: start, stoppedAt: null, durationSeconds: null };
}

/** Whose entry a new one is: the caller's, or (admins only) another member's, with their name. */
async function entryUser(ctx: ServiceContext, userId: string | undefined): Promise<{ id: string; name: string }> {
  if (userId === undefined || userId === ctx.userId) return { id: ctx.userId, name: ctx.actor.name };
  if (!hasRole(ctx.role, 'admin')) throw new ApiError('forbidden', `Recording time for another member needs the admin role or higher in this workspace; your role is ${ctx.role}.`);
  const member = await ctx.directory
    .select({ id: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, ctx.workspaceId), eq(memberships.userId, userId)))
    .get();
  if (!member) throw invalidField('user_id', 'Not a member of this workspace.');
  return member;
}

/** Members change their own entries; another member's needs admin (403, naming the role). */
function assertMayChange(ctx: ServiceContext, entry: TimeEntryRow) {
  if (entry.userId !== ctx.userId && !hasRole(ctx.role, 'admin')) {
    throw new ApiError('forbidden', `Changing another member's time entry needs the admin role or higher in this workspace; your role is ${ctx.role}.`);
  }
}

function assertUnlocked(entry: TimeEntryRow) {
  if (entry.invoiceId) throw invalidState(`This time entry is billed by invoice ${entry.invoiceId}; delete that draft or void the invoice to change it.`);
}

const runningOf = (ctx: WorkspaceContext, userId: string) =>
  and(inWorkspace(ctx, timeEntries), eq(timeEntries.userId, userId), isNull(timeEntries.durationSeconds));

/**
 * The statements that stop a running timer at `stoppedAt` (its span held to 1 s .. 24 h: a
 * forgotten timer bills at most a day), guarded on its still running, with its event.
 */
function stopStatements(ctx: WorkspaceContext, view: TimeEntryView, stoppedAt: string, now: string) {
  const before = view.entry;
  const span = Math.min(MAX_ENTRY_SECONDS, Math.max(MIN_ENTRY_SECONDS, seconds(before.startedAt!, stoppedAt)));
  const set = { stoppedAt: plusSeconds(before.startedAt!, span), durationSeconds: span, updatedAt: now };
  const after: TimeEntryView = { ...view, entry: { ...before, ...set } };
  const previous = changedAttributes(serializeTimeEntry(view), serializeTimeEntry(after));
  return {
    after,
    statements: [
      ctx.db.update(timeEntries).set(set).where(and(eq(timeEntries.id, before.id), inWorkspace(ctx, timeEntries), isNull(timeEntries.durationSeconds))),
      recordEvent(ctx, 'time_entry.updated', serializeTimeEntry(after), { previous, ifChanged: true }),
    ] as const,
  };
}

/** How many starts of one user's timers at once each succeed; past that, the last ones are 409 `conflict`. */
const TIMER_START_ATTEMPTS = 16;

export async function createTimeEntry(ctx: ServiceContext, input: CreateTimeEntryInput): Promise<TimeEntryView> {
  const user = await entryUser(ctx, input.user_id);
  const now = nowIso();
  const times = timesOf(input, now);
  if (times.durationSeconds !== null) {
    const project = await referencedProject(ctx, input.project_id);
    const view = newEntry(ctx, input, project, user, times, now);
    await ctx.db.batch([ctx.db.insert(timeEntries).values(view.entry), recordEvent(ctx, 'time_entry.created', serializeTimeEntry(view))]);
    return view;
  }
  // A timer: the project and the user's running timer in one round trip; then stop that timer and
  // start this one in one batch, only if none runs by then (a concurrent start may have won in
  // between: read again and stop that one). Every start succeeds (§19): a lost race means another
  // start of this user's committed between the read and the batch, and each start wins once, so
  // of n starts at once each is written within n attempts.
  const [projectRows, runningRows] = await ctx.db.batch([
    ctx.db.select().from(projects).where(and(eq(projects.id, input.project_id), inWorkspace(ctx, projects))).limit(1),
    selectViews(ctx).where(runningOf(ctx, user.id)).limit(1),
  ]);
  const project = projectRows[0];
  if (!project) throw invalidField('project_id', 'No such project.');
  const view = newEntry(ctx, input, project, user, times, now);
  let running: TimeEntryView | undefined = runningRows[0];
  let attempt = 0;
  return retryOnRace('timer', async () => {
    if (attempt++ > 0) [running] = await selectViews(ctx).where(runningOf(ctx, user.id)).limit(1);
    const stop = running ? stopStatements(ctx, running, now, now).statements : [];
    const startIfNoneRuns = insertIf(
      ctx.db, timeEntries, view.entry,
      sql`NOT EXISTS (SELECT 1 FROM ${timeEntries} WHERE ${runningOf(ctx, user.id)})`,
    );
    const results = await ctx.db.batch([
      ...stop,
      startIfNoneRuns,
      recordEvent(ctx, 'time_entry.created', serializeTimeEntry(view), { ifChanged: true }),
    ] as unknown as Parameters<typeof ctx.db.batch>[0]);
    return changedRows(results[stop.length]) > 0 ? view : undefined;
  }, TIMER_START_ATTEMPTS);
}

function newEntry(ctx: ServiceContext, input: CreateTimeEntryInput, project: ProjectRow, user: { id: string; name: string }, times: Times, now: string): TimeEntryView {
  const entry: TimeEntryRow = {
    id: newId('timeEntry'),
    workspaceId: ctx.workspaceId,
    userId: user.id,
    projectId: project.id,
    task: input.task ?? null,
    notes: input.notes ?? null,
    spentDate: input.spent_date ?? todayIn(ctx.timeZone, new Date(times.startedAt ?? now)),
    ...times,
    billable: input.billable ?? true,
    rate: input.rate !== undefined ? input.rate : project.hourlyRate,
    currency: project.currency,
    invoiceId: null,
    createdAt: now,
    updatedAt: now,
  };
  return viewOf(entry, project, user.name);
}

export async function getTimeEntry(ctx: WorkspaceContext, id: string): Promise<TimeEntryView> {
  const [view] = await selectViews(ctx).where(and(eq(timeEntries.id, id), inWorkspace(ctx, timeEntries))).limit(1);
  if (!view) throw notFound('Time entry');
  return view;
}

export async function listTimeEntries(ctx: WorkspaceContext, filter: TimeEntryFilter & { beforeId?: string }) {
  return selectViews(ctx)
    .where(
      and(
        inWorkspace(ctx, timeEntries),
        filter.project_id ? eq(timeEntries.projectId, filter.project_id) : undefined,
        filter.client_id ? eq(projects.clientId, filter.client_id) : undefined,
        filter.user_id ? eq(timeEntries.userId, filter.user_id) : undefined,
        filter.from ? gte(timeEntries.spentDate, filter.from) : undefined,
        filter.to ? lte(timeEntries.spentDate, filter.to) : undefined,
        filter.billable !== undefined ? eq(timeEntries.billable, filter.billable) : undefined,
        filter.invoiced === undefined ? undefined : filter.invoiced ? isNotNull(timeEntries.invoiceId) : isNull(timeEntries.invoiceId),
        filter.running === undefined ? undefined : filter.running ? isNull(timeEntries.durationSeconds) : isNotNull(timeEntries.durationSeconds),
        filter.beforeId ? lt(timeEntries.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(timeEntries.id))
    .limit(filter.limit + 1);
}

/** The row an id of a list page stands for (toPage reads `id`). */
export const withId = (view: TimeEntryView) => ({ ...view, id: view.entry.id });

/** The columns a change sets, from the entry as it is: times stay consistent and within bounds. */
async function changeOf(ctx: ServiceContext, before: TimeEntryView, input: UpdateTimeEntryInput, now: string) {
  const entry = before.entry;
  const set: Partial<TimeEntryRow> = {};
  let project: ProjectRow | undefined;
  if (input.project_id !== undefined && input.project_id !== entry.projectId) {
    project = await referencedProject(ctx, input.project_id);
    set.projectId = project.id;
    set.currency = project.currency;
    // The new project's rate, unless the change names one.
    if (input.rate === undefined) set.rate = project.hourlyRate;
  }
  if (input.rate !== undefined) set.rate = input.rate;
  if (input.task !== undefined) set.task = input.task;
  if (input.notes !== undefined) set.notes = input.notes;
  if (input.billable !== undefined) set.billable = input.billable;
  if (input.spent_date !== undefined) set.spentDate = input.spent_date;

  const { duration_seconds: duration, started_at: startedAt, stopped_at: stoppedAt } = input;
  if (entry.durationSeconds === null) {
    if (duration !== undefined || stoppedAt !== undefined) throw invalidState('This timer is running: stop it with POST …/time-entries/{id}/stop first.');
    if (startedAt !== undefined) {
      checkTimerStart(startedAt, now);
      set.startedAt = startedAt;
    }
  } else if (duration !== undefined) {
    if (stoppedAt !== undefined) throw invalidField('duration_seconds', 'Give duration_seconds or started_at and stopped_at, not both.');
    const start = startedAt ?? entry.startedAt;
    Object.assign(set, { startedAt: start, stoppedAt: start ? plusSeconds(start, duration) : null, durationSeconds: duration });
  } else if (startedAt !== undefined || stoppedAt !== undefined) {
    const start = startedAt ?? entry.startedAt;
    if (!start) throw invalidField('started_at', 'stopped_at needs started_at.');
    // A start alone moves the span and keeps its length.
    const stop = stoppedAt ?? (startedAt !== undefined ? plusSeconds(start, entry.durationSeconds) : entry.stoppedAt!);
    Object.assign(set, { startedAt: start, stoppedAt: stop, durationSeconds: checkSpan(start, stop, stoppedAt !== undefined ? 'stopped_at' : 'started_at') });
  }
  const after: TimeEntryView = project
    ? viewOf({ ...entry, ...set, updatedAt: now }, project, before.userName)
    : { ...before, entry: { ...entry, ...set, updatedAt: now } };
  return { set: { ...set, updatedAt: now }, after };
}

export async function updateTimeEntry(ctx: ServiceContext, id: string, input: UpdateTimeEntryInput): Promise<TimeEntryView> {
  return retryOnRace('time entry', async () => {
    const before = await getTimeEntry(ctx, id);
    assertMayChange(ctx, before.entry);
    assertUnlocked(before.entry);
    const now = nowIso();
    const { set, after } = await changeOf(ctx, before, input, now);
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(timeEntries)
        .set(set)
        .where(and(eq(timeEntries.id, id), inWorkspace(ctx, timeEntries), eq(timeEntries.updatedAt, before.entry.updatedAt), isNull(timeEntries.invoiceId))),
      recordEvent(ctx, 'time_entry.updated', serializeTimeEntry(after), {
        previous: changedAttributes(serializeTimeEntry(before), serializeTimeEntry(after)),
        ifChanged: true,
      }),
    ]);
    return changedRows(updated) > 0 ? after : undefined;
  });
}

export async function stopTimeEntry(ctx: ServiceContext, id: string, stoppedAt: string | undefined): Promise<TimeEntryView> {
  const view = await getTimeEntry(ctx, id);
  assertMayChange(ctx, view.entry);
  if (view.entry.durationSeconds !== null) throw invalidState('This time entry is not running.');
  const now = nowIso();
  const at = stoppedAt ?? now;
  checkSpan(view.entry.startedAt!, at, 'stopped_at');
  const { after, statements } = stopStatements(ctx, view, at, now);
  const [stopped] = await ctx.db.batch(statements);
  if (changedRows(stopped) === 0) {
    await getTimeEntry(ctx, id); // 404 if it went meanwhile
    throw invalidState('This time entry is not running.');
  }
  return after;
}

export async function deleteTimeEntry(ctx: ServiceContext, id: string): Promise<void> {
  const before = await getTimeEntry(ctx, id);
  assertMayChange(ctx, before.entry);
  assertUnlocked(before.entry);
  const [deleted] = await ctx.db.batch([
    ctx.db.delete(timeEntries).where(and(eq(timeEntries.id, id), inWorkspace(ctx, timeEntries), isNull(timeEntries.invoiceId))),
    recordEvent(ctx, 'time_entry.deleted', serializeTimeEntry(before), { ifChanged: true }),
  ]);
  if (changedRows(deleted) > 0) return;
  assertUnlocked((await getTimeEntry(ctx, id)).entry); // 404 if it went, 409 if an invoice took it meanwhile
}

/** An entry's billable seconds in SQL: rounded by its project's rule, 0 when not billable. */
export const billableSecondsSql = sql`(CASE WHEN ${timeEntries.billable} = 1 THEN ${roundDurationSql(
  sql`${timeEntries.durationSeconds}`,
  projects.timeRoundingMinutes,
  projects.timeRoundingMode,
)} ELSE 0 END)`;

/** What is still to bill in SQL: billable, not invoiced, stopped. */
export const uninvoicedSql = sql`(${timeEntries.billable} = 1 AND ${timeEntries.invoiceId} IS NULL AND ${timeEntries.durationSeconds} IS NOT NULL)`;

/** Σ per entry of round(billable seconds × rate / 3600) over what is still to bill. */
// As text: an exact integer however large, like every sum the API reports (lib/money.ts, sums).
export const uninvoicedAmountSql = sql<string>`CAST(coalesce(sum(CASE WHEN ${uninvoicedSql} AND ${timeEntries.rate} IS NOT NULL THEN ${amountForSql(billableSecondsSql, timeEntries.rate)} ELSE 0 END), 0) AS TEXT)`;

const GROUPS: Record<SummaryFilter['group_by'], { id: SQL; name: SQL }> = {
  project: { id: sql`${timeEntries.projectId}`, name: sql`${projects.name}` },
  user: { id: sql`${timeEntries.userId}`, name: sql`${users.name}` },
  client: { id: sql`${projects.clientId}`, name: sql`${clients.name}` },
};

/** Stopped entries in the period, summed per group and currency in one query. */
export async function summarizeTime(ctx: WorkspaceContext, filter: SummaryFilter) {
  const group = GROUPS[filter.group_by];
  const rows = await ctx.db
    .select({
      id: sql<string | null>`${group.id}`,
      name: sql<string | null>`${group.name}`,
      currency: timeEntries.currency,
      seconds: sql<number>`coalesce(sum(${timeEntries.durationSeconds}), 0)`,
      billable_seconds: sql<number>`coalesce(sum(${billableSecondsSql}), 0)`,
      uninvoiced_seconds: sql<number>`coalesce(sum(CASE WHEN ${uninvoicedSql} THEN ${billableSecondsSql} ELSE 0 END), 0)`,
      uninvoiced_amount: uninvoicedAmountSql,
    })
    .from(timeEntries)
    .innerJoin(projects, eq(projects.id, timeEntries.projectId))
    .leftJoin(users, eq(users.id, timeEntries.userId))
    .leftJoin(clients, eq(clients.id, projects.clientId))
    .where(
      and(
        inWorkspace(ctx, timeEntries),
        isNotNull(timeEntries.durationSeconds),
        filter.from ? gte(timeEntries.spentDate, filter.from) : undefined,
        filter.to ? lte(timeEntries.spentDate, filter.to) : undefined,
      ),
    )
    .groupBy(sql`${group.id}`, timeEntries.currency)
    .orderBy(sql`${group.name}`, sql`${group.id}`, timeEntries.currency);
  return rows.map((row) => ({
    id: row.id, name: row.name, seconds: row.seconds, billable_seconds: row.billable_seconds,
    uninvoiced_seconds: row.uninvoiced_seconds, uninvoiced_amount: exactFigure(sumFromSql(row.uninvoiced_amount), 'from', `uninvoiced_amount in ${row.currency}`), currency: row.currency,
  }));
}
