// The invoices area's public face.
export * from "./issue";
export * from "./payments";
export * from "./writeoff";
export { issuingEntity, type LegalEntity } from "./entity";
