// The official EN 16931 validator for many files at once. The artefacts' own `validate` script starts a JVM and
// compiles the CEN stylesheet (near a megabyte of XSLT) for every file: seconds each, minutes for the 75 files of
// `npm run test:einvoice`. Where the artefacts sit beside that script, this runs the same checks with the same tools, but compiles
// each stylesheet once: one Saxon run per syntax over a folder of all its files (`Transform -s:DIR`, one output per
// input), and one xmllint run of the CII D16B XSD over all the CII files. It reports as the script does, file by file
// in the order given: `FILE: [fatal|warning] RULE text` for each failed assertion (after `FILE: [fatal] XSD …` for an
// XSD error), then `N fatal, M warnings in K files`. Elsewhere (another validator, or Java, Saxon or xmllint
// missing) it calls the script once with all the files.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Where `validate` takes Saxon from (Debian's libsaxonhe-java).
const saxon = '/usr/share/java/Saxon-HE.jar';
// The client compiler alone (no C2) compiles the stylesheet in well under half the time: the JVM never runs long
// enough for C2's faster code to pay for itself.
const javaOptions = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * Validates `files` with the validator at `script` and returns its report, as `validate FILE…` prints it.
 * @param {string} script the artefacts' `validate` script (or any validator with its usage and report)
 * @param {string[]} files
 * @param {string} workDir an empty folder for the inputs by syntax and the Schematron reports
 */
export async function validateOfficially(script, files, workDir) {
  const here = path.dirname(script);
  const artefacts = {
    cii: path.join(here, 'EN16931-CII-validation.xslt'),
    ubl: path.join(here, 'EN16931-UBL-validation.xslt'),
    xsd: path.join(here, 'cii-d16b/data/standard/CrossIndustryInvoice_100pD16B.xsd'),
  };
  const tools = ['java', 'xmllint'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
  if (!tools || !existsSync(saxon) || !Object.values(artefacts).every((file) => existsSync(file))) return viaScript(script, files);

  // As the script tells the syntax: the root element's local name, or not XML at all. A file with a document type
  // declaration goes to the script alone: its DTD may be named relative to where the file lies, and the copies below
  // lie elsewhere.
  const syntaxOf = files.map((file) => {
    const result = spawnSync('xmllint', ['--xpath', 'local-name(/*)', file], { encoding: 'utf8' });
    if (result.status !== 0) return { problem: 'not well-formed XML' };
    if (readFileSync(file, 'utf8').includes('<!DOCTYPE')) return { alone: true };
    const root = result.stdout.replace(/\n+$/, '');
    if (root === 'CrossIndustryInvoice') return { syntax: 'cii' };
    if (root === 'Invoice' || root === 'CreditNote') return { syntax: 'ubl' };
    return { problem: `root element <${root}> is neither a CII CrossIndustryInvoice nor a UBL Invoice or CreditNote` };
  });

  // Each syntax's files in a folder of their own, named by position so two inputs of the same name cannot collide.
  const runs = {};
  for (const syntax of ['cii', 'ubl']) {
    const indexes = files.map((_, i) => i).filter((i) => syntaxOf[i].syntax === syntax);
    if (!indexes.length) continue;
    const input = path.join(workDir, `${syntax}-in`);
    const output = path.join(workDir, `${syntax}-svrl`);
    mkdirSync(input, { recursive: true });
    mkdirSync(output, { recursive: true });
    for (const i of indexes) copyFileSync(files[i], path.join(input, `${i}.xml`));
    runs[syntax] = { output, done: run('java', [...javaOptions, '-cp', saxon, 'net.sf.saxon.Transform', `-s:${input}`, `-xsl:${artefacts[syntax]}`, `-o:${output}`]) };
  }
  const xsdErrors = await xsdCheck(artefacts.xsd, files.filter((_, i) => syntaxOf[i].syntax === 'cii'));
  await Promise.all(Object.values(runs).map((r) => r.done));

  const lines = [];
  let fatal = 0;
  let warnings = 0;
  files.forEach((file, i) => {
    const { syntax, problem, alone } = syntaxOf[i];
    if (problem) {
      lines.push(`${file}: [fatal] ${problem}`);
      fatal += 1;
      return;
    }
    // Saxon writes the report as it goes: one that does not end was cut short by an error in that file (a value the
    // stylesheet cannot read, say). Such a file, too, goes to the script alone, for its verdict and its message.
    const svrl = alone ? '' : readIfExists(path.join(runs[syntax].output, `${i}.xml`));
    if (!/<\/svrl:schematron-output>\s*$/.test(svrl)) {
      const report = viaScript(script, [file]).replace(/\n+$/, '').split('\n');
      const count = /^(\d+) fatal, (\d+) warnings in 1 files$/.exec(report.at(-1));
      lines.push(...(count ? report.slice(0, -1) : report));
      fatal += count ? Number(count[1]) : 1;
      warnings += count ? Number(count[2]) : 0;
      return;
    }
    const xsd = syntax === 'cii' ? xsdErrors.get(file) : undefined;
    if (xsd) {
      lines.push(...xsd.map((line) => `${file}: [fatal] XSD ${line}`));
      fatal += 1;
    }
    for (const { flag, id, text } of failedAssertions(svrl)) {
      lines.push(`${file}: [${flag}] ${id} ${text}`);
      if (flag === 'fatal') fatal += 1;
      else warnings += 1;
    }
  });
  lines.push(`${fatal} fatal, ${warnings} warnings in ${files.length} files`);
  return `${lines.join('\n')}\n`;
}

/**
 * The D16B XSD on all the CII files in one xmllint run: each file's error lines, as the script prints them (without
 * xmllint's closing `FILE fails to validate`), for the files that fail it. xmllint starts each error line with the
 * file's name and ends each file with `FILE validates` or `FILE fails to validate`; should its report not read that
 * way, the files it does not clearly pass are checked again one at a time, as the script does.
 * @returns {Promise<Map<string, string[]>>}
 */
async function xsdCheck(xsd, files) {
  const errors = new Map();
  if (!files.length) return errors;
  const { stdout, stderr } = await run('xmllint', ['--noout', '--schema', xsd, ...files]);
  const byLength = [...files].sort((a, b) => b.length - a.length);
  const passed = new Set();
  const failed = new Set();
  let unread = false;
  for (const line of `${stdout}${stderr}`.split('\n').filter(Boolean)) {
    const file = byLength.find((f) => line === `${f} validates` || line === `${f} fails to validate` || line.startsWith(`${f}:`));
    if (!file) unread = true;
    else if (line === `${file} validates`) passed.add(file);
    else if (line === `${file} fails to validate`) failed.add(file);
    else errors.set(file, [...(errors.get(file) ?? []), line]);
  }
  for (const file of files) {
    if (passed.has(file) && !errors.has(file)) continue;
    if (failed.has(file) && !unread) {
      errors.set(file, errors.get(file) ?? []);
      continue;
    }
    // One file alone, exactly as the script runs it.
    const alone = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
    if (alone.status === 0) errors.delete(file);
    else errors.set(file, `${alone.stdout}${alone.stderr}`.replace(/\n+$/, '').split('\n').filter((line) => !line.endsWith('fails to validate')));
  }
  return errors;
}

/**
 * The failed assertions of a Schematron report (SVRL) in document order, as the script reads them: flag, rule id,
 * and the text with its white space run together.
 */
function failedAssertions(svrl) {
  const found = [];
  for (const [, attributes, body] of svrl.matchAll(/<svrl:failed-assert((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attribute = Object.fromEntries([...attributes.matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)].map(([, name, value]) => [name, value]));
    const text = /<svrl:text>([\s\S]*)<\/svrl:text>/.exec(body)?.[1] ?? '';
    // ASCII white space only, as the script's shell and sed see it: a rule's text may end in no-break spaces.
    found.push({ flag: attribute.flag, id: attribute.id, text: text.replace(/[ \t\n\r\f\v]+/g, ' ').replace(/^ | $/g, '') });
  }
  return found;
}

/**
 * The script itself, once, with all the files given. For many files its JVMs run on the client compiler, as above
 * (the JVM then says so on stderr, which only shows where a file cannot be read); for one, as it is.
 */
function viaScript(script, files) {
  const options = [process.env.JAVA_TOOL_OPTIONS, ...javaOptions].filter(Boolean).join(' ');
  const env = files.length > 1 ? { ...process.env, JAVA_TOOL_OPTIONS: options } : process.env;
  const result = spawnSync(script, files, { encoding: 'utf8', env });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

function readIfExists(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** A child process, to its end: its exit code and everything it printed. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk; });
    child.on('error', (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
