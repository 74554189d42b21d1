import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSearchTerm } from './useSearchTerm.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useSearchTerm (spec.md §5 and §9)', () => {
  it('takes a term of 3 characters or more 200 ms after the last keystroke', () => {
    const { result, rerender } = renderHook(({ input }) => useSearchTerm(input), { initialProps: { input: '' } });
    rerender({ input: 'alp' });
    act(() => vi.advanceTimersByTime(150));
    expect(result.current.term).toBe('');
    rerender({ input: 'alph' });
    act(() => vi.advanceTimersByTime(150));
    expect(result.current.term).toBe('');
    act(() => vi.advanceTimersByTime(60));
    expect(result.current.term).toBe('alph');
  });

  it('keeps the previous term while the input has 1 or 2 characters, and says why', () => {
    const { result, rerender } = renderHook(({ input }) => useSearchTerm(input), { initialProps: { input: 'beta' } });
    act(() => vi.advanceTimersByTime(250));
    rerender({ input: 'be' });
    act(() => vi.advanceTimersByTime(250));
    expect(result.current).toEqual({ term: 'beta', tooShort: true });
    rerender({ input: '' });
    act(() => vi.advanceTimersByTime(250));
    expect(result.current).toEqual({ term: '', tooShort: false });
  });
});
