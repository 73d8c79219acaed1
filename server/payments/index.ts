// The payments area's public face.
export * from "./methods";
export * from "./rules";
export * from "./offer";
export * from "./service";
export { idempotent, validIdempotencyKey, IDEMPOTENCY_KEY_MAX } from "./idempotency";
