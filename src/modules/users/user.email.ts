/**
 * An e-mail as the school's people are stored and looked up by: trimmed, lower-cased ('' for none).
 * A file of its own: the modules that look people up (identity, sso, mail) import no checks with it.
 */
export const normalEmail = (email: string | null | undefined) => (typeof email === 'string' ? email.trim().toLowerCase() : '');
