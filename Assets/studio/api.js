// The studio server's API: addresses with the page's token, posts, and the state an answer
// carries. The bottom of the page's modules: it imports nothing of the app.

const token = new URLSearchParams(location.search).get("token") || "";

export function api(path, params = {}) {
  const q = new URLSearchParams({ token, ...params });
  return `/api/${path}?${q}`;
}

// The state a response carries (200; 422 with the render's error in it; 409 with the change
// on disk), or an error in the server's words for any other answer.
export async function stateFrom(response) {
  if (response.ok || response.status === 422 || response.status === 409) return response.json();
  throw new Error((await response.text()) || `${response.status} ${response.statusText}`);
}

// What a request that reached no server is told: the studio has stopped, or is unreachable.
const notAnswering = "the studio is not answering: has it stopped? Nothing was sent";

export async function post(path, body, params = {}) {
  try {
    return await fetch(api(path, params), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Flipbook-Token": token },
      body: JSON.stringify(body || {}),
    });
  } catch {
    throw new Error(notAnswering);
  }
}
