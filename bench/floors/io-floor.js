// The I/O floor: only what an authenticated list request must do, with no framework: hash the key
// (SHA-256), one KV read (key hash → workspace id), one D1 query returning 25 rows, serialise them.
export default {
  async fetch(request, env) {
    const key = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
    const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const workspaceId = await env.KEYS.get(`key:${hash}`);
    if (!workspaceId) return new Response('unauthorized', { status: 401 });
    const { results } = await env.DB.prepare('SELECT * FROM projects WHERE workspace_id = ? ORDER BY id DESC LIMIT 25').bind(workspaceId).all();
    return Response.json({ data: results, has_more: true, next_cursor: null });
  },
};
