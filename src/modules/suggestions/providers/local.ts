// A deterministic provider that needs no model: it structures the task text into steps, and prices
// and estimates from the caller's own invoices and project. Useful offline and in tests, and a
// fallback wherever Workers AI is not bound.
// Amounts are minor units of the rate's currency, computed in integers like invoice lines.
import { formatMoney, lineAmount, percentOf } from '../../../lib/money';
import type { SuggestionItemValue, SuggestionJob, SuggestionProvider, WorkContext } from './types';

const DEFAULT_HOURS_PER_STEP = 4;
/** A fixed price is the hours at the rate plus this share for unknowns. */
const FIXED_PRICE_BUFFER_PERCENT = 115;

/** The task's parts: sentences, lines, and "and"/"then"-joined clauses. */
export function splitTask(task: string): string[] {
  return task
    .split(/[\n.;!?]+|,?\s+(?:and then|then|and|also)\s+/i)
    .map((part) => part.replace(/^[\s,:-]+|[\s,:-]+$/g, ''))
    .filter((part) => part.length >= 3)
    .slice(0, 8);
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const money = (amount: number, currency: string) => formatMoney(amount, currency);
/** round(hours × hourly rate), as an invoice line with that quantity would bill it. */
const billed = (hours: number, rate: number) => lineAmount(Math.round(hours * 1000), rate);

function rateOf(context: WorkContext): { rate: number; currency: string; source: string } | null {
  if (context.project?.hourlyRate) return { rate: context.project.hourlyRate, currency: context.project.currency, source: `the hourly rate of ${context.project.name}` };
  if (context.history.medianRate && context.history.currency) {
    return { rate: context.history.medianRate, currency: context.history.currency, source: `your median invoiced rate over ${context.history.lines} lines` };
  }
  return null;
}

function plan(task: string): SuggestionItemValue[] {
  const parts = splitTask(task);
  const steps = parts.length ? parts : [task.slice(0, 200)];
  return [
    { title: 'Agree the scope', detail: `Confirm with the client what "done" means for: ${task.slice(0, 300)}` },
    ...steps.map((part, i) => ({ title: `Step ${i + 1}: ${sentence(part).slice(0, 180)}`, detail: `Do and check: ${part}.` })),
    { title: 'Review and hand over', detail: 'Walk the client through the result, collect feedback, and invoice the agreed amount.' },
  ];
}

function estimate(task: string, context: WorkContext): SuggestionItemValue[] {
  const parts = splitTask(task).length ? splitTask(task) : [task.slice(0, 200)];
  const hoursPerStep = context.history.medianHours ?? DEFAULT_HOURS_PER_STEP;
  const rate = rateOf(context);
  const items = parts.map((part) => ({
    title: sentence(part).slice(0, 200),
    detail: `About ${hoursPerStep} h, ${context.history.medianHours ? 'your typical line' : 'a default step size (no invoice history yet)'}.`,
    estimate_hours: hoursPerStep,
    ...(rate ? { amount: billed(hoursPerStep, rate.rate) } : {}),
  }));
  const hours = hoursPerStep * parts.length;
  return [
    ...items,
    {
      title: 'Total',
      detail: rate ? `${hours} h at ${money(rate.rate, rate.currency)}/h (${rate.source}) = ${money(billed(hours, rate.rate), rate.currency)}.` : `${hours} h in total; set an hourly rate on the project to price it.`,
      estimate_hours: hours,
      ...(rate ? { amount: billed(hours, rate.rate) } : {}),
    },
  ];
}

function pricing(task: string, context: WorkContext): SuggestionItemValue[] {
  const rate = rateOf(context);
  const hours = (context.history.medianHours ?? DEFAULT_HOURS_PER_STEP) * Math.max(1, splitTask(task).length);
  if (!rate) {
    return [{ title: 'Set a rate first', detail: 'There is no hourly rate on the project and no invoice history to learn from; invoice some work or set project.hourly_rate.', estimate_hours: hours }];
  }
  const fixed = percentOf(billed(hours, rate.rate), FIXED_PRICE_BUFFER_PERCENT);
  const items: SuggestionItemValue[] = [
    { title: 'Hourly', detail: `Bill ${money(rate.rate, rate.currency)} per hour, from ${rate.source}.`, amount: rate.rate },
    { title: 'Fixed price', detail: `${hours} h × ${money(rate.rate, rate.currency)} plus a 15 % buffer for unknowns = ${money(fixed, rate.currency)}.`, estimate_hours: hours, amount: fixed },
  ];
  if (context.project?.budget) {
    const fits = fixed <= context.project.budget;
    items.push({ title: 'Against the budget', detail: `The project budget is ${money(context.project.budget, context.project.currency)}: the fixed price ${fits ? 'fits' : 'exceeds it; trim the scope or agree more budget'}.`, amount: context.project.budget });
  }
  return items;
}

function message(task: string, context: WorkContext): SuggestionItemValue[] {
  const greeting = context.project?.clientName ? `Hi ${context.project.clientName},` : 'Hi,';
  const parts = splitTask(task);
  const body = parts.length > 1 ? `Here is what I plan to do:\n${parts.map((p) => `- ${sentence(p)}`).join('\n')}` : `I'd like to pick up the following: ${task}`;
  const project = context.project ? ` for ${context.project.name}` : '';
  return [{ title: 'Draft message', detail: `${greeting}\n\n${body}\n\nI'll confirm timing and cost${project} before starting. Does this match what you had in mind?\n\nBest regards` }];
}

/**
 * The first line of every answer (§6): what follows is a sample worked out by rules, so no one takes
 * it for a model's judgement. The suggestion itself says `sample: true` (service.ts).
 */
export const SAMPLE_NOTICE: SuggestionItemValue = {
  title: 'Sample: no AI model wrote this',
  detail: 'Worked out by fixed rules from the task text and your own records, not by an AI model. Treat it as a starting point.',
};

function suggestionsFor({ kind, task, context }: SuggestionJob): SuggestionItemValue[] {
  switch (kind) {
    case 'plan':
      return plan(task);
    case 'estimate':
      return estimate(task, context);
    case 'pricing':
      return pricing(task, context);
    case 'message':
      return message(task, context);
  }
}

export const localProvider: SuggestionProvider = {
  name: 'local',
  async suggest(job: SuggestionJob) {
    return [SAMPLE_NOTICE, ...suggestionsFor(job)];
  },
};
