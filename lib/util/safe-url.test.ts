import { describe, expect, it } from 'vitest';
import { urlWithoutSecrets } from './safe-url';

describe('urlWithoutSecrets', () => {
  it('drops the user name, password, query and fragment', () => {
    expect(urlWithoutSecrets('https://bob:hunter2@hooks.example/T000/B000/XXXX?token=s3cret&x=1#frag')).toBe('https://hooks.example/T000/B000/XXXX');
  });
  it('leaves a plain URL, a peer name and non-http text as they are', () => {
    expect(urlWithoutSecrets('http://127.0.0.1:3000/a2a/echo')).toBe('http://127.0.0.1:3000/a2a/echo');
    expect(urlWithoutSecrets('research-peer')).toBe('research-peer');
    expect(urlWithoutSecrets('mailto:a@b.c?subject=x')).toBe('mailto:a@b.c?subject=x');
  });
});
