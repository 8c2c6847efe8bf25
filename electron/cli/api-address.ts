// Where the CLI sends requests: the API base URL (https://, or http:// to this
// computer for the simulator) and a fetch that names a non-default API once.
import { DEFAULT_BASE_URL } from '../../shared/domain';
import { checkApiBaseUrl, DEFAULT_API_ORIGIN } from '../../shared/api-origin';
import type { Io } from './context';
import { UsageError } from './options';

export interface ApiAddress {
  url: string;
  origin: string;
}

/**
 * The API base URL from --base-url, else TRAKKR_BASE_URL, else the default:
 * https://, or http:// to this computer only (the simulator). Refused before
 * anything is sent, naming where the address came from.
 */
export function apiBaseUrl(flag: unknown, env: string | undefined): ApiAddress {
  if (flag !== undefined && typeof flag !== 'string') throw new UsageError('--base-url needs an address, e.g. --base-url https://api.trakkr.ai');
  const source = flag !== undefined ? '--base-url' : env ? 'TRAKKR_BASE_URL' : null;
  const r = checkApiBaseUrl(flag ?? (env || DEFAULT_BASE_URL));
  if (!r.ok) throw new UsageError(`${source ?? 'The default API address'}: ${r.reason} Nothing was sent.`);
  return r;
}

/** Global fetch, saying once on stderr, before the first request, that the API is not the default one. */
export function announcingFetch(api: ApiAddress, io: Io): typeof fetch {
  if (api.origin === DEFAULT_API_ORIGIN) return (input, init) => fetch(input, init);
  let said = false;
  return (input, init) => {
    if (!said) {
      said = true;
      io.err(`Using the API at ${api.url} (not the default).\n`);
    }
    return fetch(input, init);
  };
}
