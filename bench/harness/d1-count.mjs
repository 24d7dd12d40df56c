// D1 round trips per request, counted by a copy of the app whose D1 binding is wrapped
// (d1-count.worker.js: a statement's first/all/run/raw, a batch or an exec each count one). It runs on
// requests of its own, after a warm-up so the API key is cached as it is under load, and never
// during the timed load, which goes to the unwrapped app.
export async function countD1Calls(mf, { host, path, method = 'GET', headers = {}, body, freshRequest = () => ({}) }) {
  const worker = await mf.getWorker('count');
  const calls = [];
  const batches = [];
  const rowsRead = [];
  const rowsWritten = [];
  const durations = [];
  const walls = [];
  let status;
  for (let i = 0; i < 3; i++) {
    const fresh = freshRequest();
    // A redirect (a form's 303) is the answer counted, never followed.
    const response = await worker.fetch(`http://${host}${fresh.path ?? path}`, { method, headers: { ...headers, ...fresh.headers }, body: fresh.body ?? body, redirect: 'manual' });
    await response.arrayBuffer();
    status = response.status;
    if (status === 404) break; // the route is not mounted (yet)
    if (i > 0) {
      calls.push(Number(response.headers.get('X-Bench-D1-Calls')));
      batches.push(Number(response.headers.get('X-Bench-D1-Batches')));
      rowsRead.push(Number(response.headers.get('X-Bench-D1-Rows-Read')));
      rowsWritten.push(Number(response.headers.get('X-Bench-D1-Rows-Written')));
      durations.push(Number(response.headers.get('X-Bench-D1-Duration-Ms')));
      walls.push(Number(response.headers.get('X-Bench-D1-Wall-Ms')));
    }
  }
  const most = (values) => (values.length ? Math.max(...values) : null);
  return { status, calls: most(calls), batches: most(batches), rowsRead: most(rowsRead), rowsWritten: most(rowsWritten), d1Ms: most(durations), wallMs: most(walls) };
}
