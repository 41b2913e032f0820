// What the trackers' pages share (encounter.js, season.js): building nodes
// without HTML, the device's storage, and a record packed into a link.

/** An element with attributes, `class`, `text` (as textContent) and children; never HTML. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c != null));
  return node;
}

/** localStorage without exceptions: null when it is off or empty. */
export function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Store (or, for null, forget) a value; false when storage is full or off: the page still works, it just forgets. */
export function write(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

function toBase64Url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Text deflated and written in base64url: what a share link carries. */
export async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The text a link carries, at most `max` characters; throws a sentence about `what` ("season") when it cannot be read. */
export async function unpack(code, what, max) {
  const broken = `the link's ${what} was cut short or changed`;
  if (!/^[A-Za-z0-9_-]+$/.test(code) || code.length > max) throw new Error(broken);
  if (typeof DecompressionStream === "undefined") throw new Error(`this browser cannot unpack ${what} links; ask for the exported file instead`);
  let bytes;
  try {
    bytes = Uint8Array.from(atob(code.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    throw new Error(broken);
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > max) {
        reader.cancel();
        throw new Error(`the link's ${what} unpacks to more than ${max.toLocaleString("en")} characters`);
      }
    }
  } catch (err) {
    if (err.message.startsWith("the link")) throw err;
    throw new Error(broken);
  }
  return text + decoder.decode();
}
