// The payments area's public face.
export * from "./methods";
