// the one place Konsta's ListInput is used: everywhere else goes through LabelledInput
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { ListInput } from 'konsta/react';
import { type ComponentProps, useId } from 'react';

type Props = ComponentProps<typeof ListInput>;

/**
 * Konsta's ListInput with its label tied to its input. Konsta draws the label as a div, so the
 * input's only name was its placeholder, gone once the member types: a screen reader said nothing
 * useful and a test could not find the field by its label. A <label for> inside the div names it.
 * A custom `input` is named by giving it `inputId` as its id.
 */
export function LabelledInput(props: Props) {
  const own = useId();
  const id = props.inputId ?? own;
  // the field itself is the touch target: the label keeps Konsta's line, not the 44 px of a tappable label
  const label = props.label ? (
    <label htmlFor={id} className="min-h-0 min-w-0">
      {props.label}
    </label>
  ) : (
    props.label
  );
  return <ListInput {...props} inputId={id} label={label} />;
}
