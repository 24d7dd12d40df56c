// §24 with §21: the client an accept makes carries the poster's Peppol id, so an invoice the freelancer sends it
// arrives in the poster's inbound documents at once (`source: "network"`), with no email between them.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { supplierStudio } from '../inbound-documents/exports';
import { postGig, sendProposal } from './helpers';

describe('an accepted proposal, then the work billed', () => {
  it('delivers the freelancer\'s invoice into the poster\'s inbound documents', async () => {
    const digits = String(crypto.getRandomValues(new Uint32Array(1))[0]).padStart(10, '7').slice(0, 9);
    const poster = await createUser('Poppy Poster');
    const issuer = {
      legal_name: 'Bäckerei Brot & Co. GmbH', email: 'rechnungen@brot.example', vat_id: `DE${digits}`, peppol_id: `9930:DE${digits}`,
      address: { line1: 'Hauptstraße 5', city: 'Berlin', postal_code: '10115', country: 'DE' },
    };
    expect((await call('PATCH', '/api/workspace', { key: poster.key, body: { issuer } })).status).toBe(200);
    const freelancer = await supplierStudio();
    const gig = await postGig(poster.key);
    const proposal = await sendProposal(freelancer.owner.key, gig.id);
    const accepted = await call('POST', `/v1/gigs/${gig.id}/proposals/${proposal.id}/accept`, { key: poster.key });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const client = (await call('GET', `/v1/clients/${accepted.body.client_id}`, { key: freelancer.owner.key })).body;
    expect(client.peppol_id).toBe(issuer.peppol_id);
    const draft = await call('POST', '/v1/invoices', {
      key: freelancer.owner.key,
      body: { client_id: client.id, currency: 'EUR', purchase_order: 'Logo-1', line_items: [{ description: 'Logo and style guide', quantity: 1, unit_amount: 90_000, tax_rate: 19 }] },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const sent = await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: freelancer.owner.key, body: { email: false } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    const received = (await call('GET', '/v1/inbound-documents', { key: poster.key })).body.data;
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ source: 'network', filename: `${sent.body.number}.ubl.xml` });
  });
});
