// The captcha challenge as the upload form receives it (server/grammar-check/captcha.ts makes it; ADR 070) and the
// browser's proof-of-work solver (app/components/grammar-check/Captcha.tsx runs it). Isomorphic: Web Crypto only.

export interface CaptchaChallenge {
  /** The proof-of-work challenge (ALTCHA v1 fields): find n with SHA-256(salt + n) = challenge, n ≤ maxnumber. */
  altcha: { algorithm: "SHA-256"; challenge: string; maxnumber: number; salt: string; signature: string };
  /** The fallback question for visitors without JavaScript: what is a plus b; `token` binds its answer. */
  question: { a: number; b: number; token: string };
  expiresAt: string;
}

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Solves the proof of work with Web Crypto and returns the `altcha` field's value (base64 JSON, as altcha-lib
 * verifies it), or null when there is no Web Crypto, no solution up to maxnumber, or `shouldStop()` says so.
 */
export async function solveCaptcha(altcha: CaptchaChallenge["altcha"], shouldStop: () => boolean = () => false): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const encoder = new TextEncoder();
  for (let n = 0; n <= altcha.maxnumber; n++) {
    if (n % 1000 === 0 && shouldStop()) return null;
    if (hex(await subtle.digest("SHA-256", encoder.encode(altcha.salt + n))) === altcha.challenge) {
      const payload = {
        algorithm: altcha.algorithm,
        challenge: altcha.challenge,
        number: n,
        salt: altcha.salt,
        signature: altcha.signature,
      };
      return btoa(JSON.stringify(payload));
    }
  }
  return null;
}
