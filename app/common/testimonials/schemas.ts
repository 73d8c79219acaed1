// The staff review form of testimonials (issue 25 item 4): approve or reject one, by id.
import * as z from "zod/mini";

export const testimonialReviewSchema = z.object({
  intent: z.enum(["approve", "reject"]),
  id: z.string().check(z.regex(/^[0-9a-f-]{36}$/i)),
});
export type TestimonialReviewInput = z.output<typeof testimonialReviewSchema>;
