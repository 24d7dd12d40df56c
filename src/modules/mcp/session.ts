// What this server keeps of a connection: nothing on its side. The protocol versions it speaks, and
// what the client said at `initialize` that later requests need (whether it can answer
// `elicitation/create`), travel in the Mcp-Session-Id the server hands out and the client sends on
// every request after, so any isolate can serve any request. The id grants nothing: every request is
// authenticated by its own key, and a client that claims a capability it lacks only fails its own calls.

/** Newest first: what `initialize` answers when the client asks for a version this server does not speak. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

export const SESSION_HEADER = 'Mcp-Session-Id';
export const VERSION_HEADER = 'MCP-Protocol-Version';

const isSpoken = (version: unknown): version is ProtocolVersion => PROTOCOL_VERSIONS.includes(version as ProtocolVersion);

/** The version `initialize` settles on: the client's when this server speaks it, else this server's newest. */
export const negotiatedVersion = (asked: unknown): ProtocolVersion => (isSpoken(asked) ? asked : PROTOCOL_VERSIONS[0]);

/**
 * The version a later request speaks, from its MCP-Protocol-Version header: undefined for one this
 * server does not speak (the transport answers it 400). A client that sends none is taken to speak
 * the oldest version here, as the transport allows for clients from before the header.
 */
export function requestVersion(header: string | undefined): ProtocolVersion | undefined {
  if (header === undefined) return PROTOCOL_VERSIONS.at(-1);
  return isSpoken(header.trim()) ? (header.trim() as ProtocolVersion) : undefined;
}

export type Session = { elicitation: boolean };

/**
 * Whether the client can be asked a form question: `elicitation: {}` (form, as 2025-06-18 defines it)
 * or `elicitation: {form: …}`; a client that declares only `url` elicitation cannot show a form.
 */
export function sessionOf(capabilities: unknown): Session {
  const elicitation = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return { elicitation: false };
  const modes = Object.keys(elicitation);
  return { elicitation: modes.length === 0 || modes.includes('form') };
}

// `e` when the client takes elicitation, `n` when not, then a random part so that ids never repeat.
export const sessionId = (session: Session) => `${session.elicitation ? 'e' : 'n'}.${crypto.randomUUID()}`;

/** What a session id says; a request without one (or with one from elsewhere) asks nothing of the client. */
export const sessionFrom = (id: string | undefined): Session => ({ elicitation: id?.startsWith('e.') ?? false });
