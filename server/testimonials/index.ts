// The testimonials area's public face (issue 25 item 4). Named exports only.
export { submitTestimonial, submittedTestimonial, testimonialsRoot, TESTIMONIAL_FILE_FIELD, TESTIMONIAL_TEXT_FIELD } from "./submit";
export { processPhoto, sniffImageType, type PhotoCheck } from "./photo";
export { listTestimonials, reviewTestimonial, staffTestimonial, testimonialPhoto, type StaffTestimonial } from "./staff";
