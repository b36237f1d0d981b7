import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cn } from './cn';
import { FOCUS_RING } from './button';

const BASE =
  'block w-full rounded-md border bg-white px-3 text-sm text-zinc-900 placeholder:text-zinc-400 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500';

function border(invalid?: boolean) {
  return invalid ? 'border-red-500 dark:border-red-500' : 'border-zinc-300 dark:border-zinc-700';
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
}

export function Input({ invalid, className, ...props }: InputProps) {
  return <input aria-invalid={invalid || undefined} className={cn(BASE, 'h-9', border(invalid), FOCUS_RING, className)} {...props} />;
}

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  invalid?: boolean;
}

export function Textarea({ invalid, className, ...props }: TextareaProps) {
  return <textarea aria-invalid={invalid || undefined} className={cn(BASE, 'py-2', border(invalid), FOCUS_RING, className)} {...props} />;
}
