import { createContext, useContext } from "react";

/** The CSP nonce of the current response (server render only; browsers hide it after load). */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
