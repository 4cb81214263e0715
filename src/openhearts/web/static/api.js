// The server's HTTP API.

import { asSentence } from "./words.js";

/**
 * Call the server: the answer's JSON, or an Error with the server's message (and
 * `status`, `code`).  `headers` adds request headers (e.g. Authorization).
 */
export async function api(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error("The server cannot be reached. Check your connection and try again.");
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error(asSentence((data && data.message) || `The server said ${response.status}.`));
    error.status = response.status;
    error.code = data && data.error;
    throw error;
  }
  return data;
}
