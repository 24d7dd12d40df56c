// Projects, mounted under /api/workflow and /v1 alike.
import { defineRoute, jsonBody, jsonContent, noContent } from '../../http/define-route';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import * as S from './schemas';
import { createProject, deleteProject, getProject, listProjects, serializeProject, updateProject } from './service';
import { projectTotals } from './totals';

const tags = ['Projects'];
const params = idParams('project');

export const projectRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'get', path: '/projects', operationId: 'listProjects', tags, access: 'user', role: 'viewer',
      summary: 'List projects',
      request: { query: S.ProjectQuery },
      responses: { 200: jsonContent(S.ProjectPage, 'A page of projects.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listProjects(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'project') });
      return c.json(toPage(rows, query.limit, serializeProject), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'post', path: '/projects', operationId: 'createProject', tags, access: 'user', role: 'member',
      summary: 'Create a project',
      request: { body: jsonBody(S.CreateProjectBody) },
      responses: { 201: jsonContent(S.Project, 'The new project.') },
    }),
    async (c) => c.json(serializeProject(await createProject(c.get('ctx'), c.req.valid('json'))), 201),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/projects/{id}', operationId: 'getProject', tags, access: 'user', role: 'viewer', errors: [422, 503],
      summary: 'Get a project, with its totals in USD',
      description: 'Amounts in other currencies are converted at the cached rates, half away from zero (503 `rates_unavailable` if needed and none are cached). A total beyond 2^53 − 1 minor units is a 422, never a rounded figure.',
      request: { params },
      responses: { 200: jsonContent(S.ProjectWithTotals, 'The project and its totals.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const project = await getProject(ctx, c.req.valid('param').id);
      const totals = await projectTotals(ctx, project.id);
      return c.json({ ...serializeProject(project), totals }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'patch', path: '/projects/{id}', operationId: 'updateProject', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Update a project',
      description: 'Only the fields sent change. A new `client_id` is 409 `conflict` while invoices, quotes, recurring invoices, expenses or time entries reference the project.',
      request: { params, body: jsonBody(S.UpdateProjectBody) },
      responses: { 200: jsonContent(S.Project, 'The updated project.') },
    }),
    async (c) => {
      const row = await updateProject(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(serializeProject(row), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'delete', path: '/projects/{id}', operationId: 'deleteProject', tags, access: 'user', role: 'member', errors: [409],
      summary: 'Delete a project',
      description: '409 `conflict` while invoices, quotes, recurring invoices, expenses or time entries reference it (the message names them); archive it instead.',
      request: { params },
      responses: { 204: noContent },
    }),
    async (c) => {
      await deleteProject(c.get('ctx'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
