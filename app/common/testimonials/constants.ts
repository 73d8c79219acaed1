// Testimonials (issue 25 item 4, spec 3 §2 "Testimonials", §5): the limits the form, the API and the domain share.
export const TESTIMONIAL_TEXT_MAX = 5000;
/** The one optional photo: at most this many bytes (refused as soon as the body says or reaches more). */
export const TESTIMONIAL_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** Each side of a photo at most (a larger one is refused), and the stored copy fits in this square. */
export const TESTIMONIAL_PHOTO_MAX_SIDE = 12_000;
/**
 * And at most this many pixels (a 48 MP phone photo fits): what decoding may hold is bounded (≈ 200 MB as RGBA)
 * whatever a 5 MB file's header claims — 12,000 × 12,000 would be 576 MB.
 */
export const TESTIMONIAL_PHOTO_MAX_PIXELS = 50_000_000;
export const TESTIMONIAL_PHOTO_STORED_SIDE = 2_000;
export const TESTIMONIAL_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const TESTIMONIAL_STATUSES = ["submitted", "approved", "rejected"] as const;
