/** Binds a form control to one text field of the dispatch draft. */
import { fieldState } from '@/components/ui/field';
import type { DispatchDraft } from './use-dispatch-draft';

type TextField = 'peer' | 'url' | 'text' | 'data' | 'timeoutSeconds';

/** The control's id, value, error state (fieldState) and change handler for `field`. */
export function draftField(field: TextField, draft: DispatchDraft, errors: Record<string, string>, onChange: (patch: Partial<DispatchDraft>) => void, hint: 'hint' | 'no hint' = 'hint') {
  return {
    id: field,
    value: draft[field],
    ...fieldState(field, errors[field], hint),
    onChange: (e: { target: { value: string } }) => onChange({ [field]: e.target.value }),
  };
}
