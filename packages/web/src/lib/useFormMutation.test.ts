import { useForm } from '@mantine/form';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { showFieldErrors } from './useFormMutation.ts';

const formOfHeaders = () =>
  renderHook(() => useForm({ initialValues: { name: '', headers: [{ name: 'a', value: '' }] } })).result;

describe('showFieldErrors', () => {
  it("puts each field's message from VALIDATION_FAILED details under that field", () => {
    const form = formOfHeaders();
    const error = new ApiError(
      400,
      'body/name Input is required',
      [
        { field: 'name', message: 'Input is required' },
        { field: 'headers.0.name', message: 'Header name must be unique' },
      ],
      'VALIDATION_FAILED',
    );
    act(() => showFieldErrors(form.current, error));
    expect(form.current.errors).toEqual({
      name: 'Input is required',
      'headers.0.name': 'Header name must be unique',
    });
  });

  it("puts a field the form holds elsewhere under the form's own field", () => {
    const form = formOfHeaders();
    const error = new ApiError(
      400,
      'headers.0.config.value: Max length is 1000',
      [{ field: 'headers.0.config.value', message: 'Max length is 1000' }],
      'VALIDATION_FAILED',
    );
    act(() => showFieldErrors(form.current, error, (field) => field.replace('.config.', '.')));
    expect(form.current.errors).toEqual({ 'headers.0.value': 'Max length is 1000' });
  });

  it('leaves the form alone when the failure names no field', () => {
    const form = formOfHeaders();
    act(() => showFieldErrors(form.current, new ApiError(409, 'Name is taken', undefined, 'SITE_NAME_TAKEN')));
    act(() => showFieldErrors(form.current, new ApiError(0, 'The server cannot be reached')));
    act(() => showFieldErrors(form.current, new Error('boom')));
    expect(form.current.errors).toEqual({});
  });
});
