// The testimonials JSON API (spec 3 §7): POST /api/testimonials/create, multipart (testimonial, testimonialFiles).
// Errors `{ error, fieldErrors }`: testimonial-required, photo-type, photo-too-large… (router statuses).
import { endpoint, reply, type EndpointTable } from "../http/api/endpoint";
import { multipartBody } from "../http/multipart";
import { submitTestimonial } from "./index";

export const testimonialsApi: EndpointTable = [
  endpoint({
    method: "POST",
    path: "/api/testimonials/create",
    auth: "user",
    body: "stream",
    summary:
      "Submits a testimonial (multipart: testimonial, required; testimonialFiles, one optional JPEG/PNG/WebP photo up to 5 MB, recognised by content and re-encoded without metadata).",
    async handler({ scope, webRequest }) {
      const r = await submitTestimonial(scope, multipartBody(webRequest()));
      if (!r.ok) return r;
      return reply({ id: r.value.id, photo: r.value.photo, submittedTestimonial: true }, { status: 201 });
    },
  }),
];
