// Where a lower room reaches a higher one, the lower room owns a small registry and the higher one
// registers its piece in its own register.ts. This module runs them all; the worker entry imports it
// first (src/index.ts), so every registration is made before a request, a queue message or a cron run
// is handled, and the test setup imports it too (test/helpers/setup.ts).
import './modules/workspaces/register';
import './modules/access/register';
import './modules/invoices/register';
import './modules/payments/register';
import './modules/credit-notes/register';
import './modules/quotes/register';
import './modules/proposals/register';
import './modules/webhooks/register';
import './modules/inbound-documents/register';
