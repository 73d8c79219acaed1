// The words of a validation failure whose schema gave none: a translation key (common:validation.*), never
// zod's English ("expected string to have <=200 characters"; issue 9 §4). zod keeps one configuration per
// process (and per browser page); the schema modules import this one for its effect.
import * as z from "zod/mini";

z.config({
  customError: (issue) =>
    issue.code === "too_big"
      ? "common:validation.too-long"
      : issue.code === "too_small"
        ? "common:validation.too-short"
        : "common:validation.invalid",
});
