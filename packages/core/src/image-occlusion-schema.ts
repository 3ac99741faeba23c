/** The fields an image occlusion note is saved with: validateImageOcclusion's rules and the field lengths. */
import { z } from "zod/mini";
import { type ImageOcclusionFields, validateImageOcclusion } from "./image-occlusion";
import { limits } from "./limits";

const issueMessages: Record<string, string> = {
  "image:missing": "Choose an image to occlude.",
  "occlusions:missing": "Draw at least one mask over the image.",
  "occlusions:too-many-groups": `An image can have at most ${limits.clozeNumbersPerNote} mask groups.`,
  "occlusions:text-outside-occlusions": "The occlusion field can hold only masks like {{c1::image-occlusion:rect:…}}.",
};

function text(label: string) {
  return z
    .string({ error: `The ${label} must be text.` })
    .check(z.maxLength(limits.fieldLength, `The ${label} can be at most ${limits.fieldLength} characters.`));
}

export const imageOcclusionFieldsSchema = z
  .object({
    image: text("image"),
    occlusions: text("occlusion field"),
    header: z._default(text("header"), ""),
    back_extra: z._default(text("back extra"), ""),
    comments: z._default(text("comments"), ""),
  })
  .check(
    z.superRefine((fields: ImageOcclusionFields, context) => {
      for (const issue of validateImageOcclusion(fields)) {
        context.addIssue({
          code: "custom",
          path: [issue.field],
          message: issueMessages[`${issue.field}:${issue.problem}`] ?? "Check the image and its masks.",
        });
      }
    }),
  );
