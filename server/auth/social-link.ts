// Linking a social sign-in identity to an account created from register/confirm/{data}.
// (Filled in with the social sign-in capability.)
import type { AppContext } from "../context";

/** Attaches the pending social identity `linkId` to the new user when its verified e-mail matches; returns whether it did. */
export async function attachPendingLink(_ctx: AppContext, _linkId: string, _user: { id: number; email: string }): Promise<boolean> {
  return false;
}
