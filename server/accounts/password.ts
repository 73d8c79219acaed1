// Password hashing: argon2id with m = 19 MiB, t = 2, p = 1 (OWASP ASVS / DESIGN §5).
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable with isolatedModules) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
