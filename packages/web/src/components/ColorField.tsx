import { ColorInput, type ColorInputProps } from '@mantine/core';
import { swatches } from './swatches.ts';

/** The color of an organization, team or site: a hex value, with the console's swatches to pick from. */
export function ColorField(props: ColorInputProps) {
  return (
    <ColorInput
      label="Color"
      format="hex"
      swatches={swatches}
      fixOnBlur={false}
      withAsterisk
      eyeDropperButtonProps={{ 'aria-label': 'Eyedropper: pick from the screen' }}
      {...props}
    />
  );
}
