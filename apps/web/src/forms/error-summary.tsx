import type { RefObject } from "react";
import type { FormErrors } from "./form-errors.js";

/**
 * What went wrong, announced as soon as it appears: the live region is always
 * in the page so screen readers notice its content changing.
 */
export function ErrorSummary({ errors, formRef }: { errors: FormErrors; formRef?: RefObject<HTMLFormElement | null> }) {
  const focusField = (field: string) => {
    formRef?.current?.querySelector<HTMLInputElement>(`[data-field="${field}"]`)?.focus();
  };
  return (
    <div role="alert" className={errors.summary.length > 0 ? "error-summary" : undefined}>
      {errors.summary.length === 1 && !errors.summary[0]?.field ? (
        <p>{errors.summary[0]?.message}</p>
      ) : errors.summary.length > 0 ? (
        <>
          <p>Please fix the following:</p>
          <ul>
            {errors.summary.map(({ field, message }) => (
              <li key={`${field}-${message}`}>
                {field ? (
                  <button type="button" className="link-button" onClick={() => focusField(field)}>
                    {message}
                  </button>
                ) : (
                  message
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
