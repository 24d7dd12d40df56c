// The verdict of the rule engine and how a rule adds to it: the official rule id, and its text as the CEN
// artefacts state it (rule-texts.ts), so a failure here reads like the same failure from the official validator.
import type { Invoice } from './model';
import { RULE_TEXTS } from './rule-texts';

export type RuleFailure = { rule: string; message: string; path?: string };

export type EInvoiceVerdict = {
  valid: boolean;
  /** The syntax the document was read as, or null when it could not be read at all. */
  syntax: 'cii' | 'ubl' | null;
  /** Fatal rules that failed: any one makes the document invalid. */
  failures: RuleFailure[];
  /** Rules the artefacts flag as warnings (advice): they do not make the document invalid. */
  warnings: RuleFailure[];
};

export class Report {
  readonly failures: RuleFailure[] = [];
  readonly warnings: RuleFailure[] = [];

  constructor(readonly invoice: Invoice) {}

  /** Records `rule` as failed unless `holds`; `path` names the business term or group where it failed. */
  check(rule: string, holds: boolean, path?: string): void {
    if (holds) return;
    const entry = RULE_TEXTS[rule];
    const syntax = this.invoice.syntax;
    const message = (syntax === 'ubl' ? entry?.ubl : undefined) ?? entry?.text ?? rule;
    const failure: RuleFailure = path ? { rule, message, path } : { rule, message };
    if (entry?.flag?.[syntax] === 'warning') this.warnings.push(failure);
    else this.failures.push(failure);
  }
}
