import { useId, type CSSProperties } from 'react';
import { Trans, useLingui } from '@lingui/react';
import type { PriceRange } from '../types';
import type { PriceValues } from '../utils/filter-tokens';
import { formatAmount } from '@/lib/money';
import { moveThumb, sliderValues } from '../utils/price-range';

interface Props {
  range: PriceRange;
  /** null: the whole range. */
  value: PriceValues | null;
  onChange: (value: PriceValues | null) => void;
  disabled?: boolean;
}

function percent(v: number, range: PriceRange): string {
  const span = range.max - range.min;
  return `${span > 0 ? ((v - range.min) / span) * 100 : 0}%`;
}

/**
 * The monthly premium slider: two native range inputs on one track (arrow keys move a thumb by
 * the step, Home/End to the ends). A thumb stops at the other one.
 */
export function PriceRangeSlider({ range, value, onChange, disabled = false }: Props) {
  const { i18n } = useLingui();
  const id = useId();
  const v = sliderValues(value, range);
  const flat = range.max <= range.min;
  const style = { '--ef-lo': percent(v.min, range), '--ef-hi': percent(v.max, range) } as CSSProperties;
  return (
    <fieldset className="ds-c-fieldset ef-price">
      <legend className="ds-c-label">
        <Trans id="Monthly premium" />
      </legend>
      <p className="ef-price__values" id={`${id}-values`}>
        <Trans id="{min} to {max}" values={{ min: formatAmount(v.min), max: formatAmount(v.max) }} />
      </p>
      {!flat && (
        <div className="ef-price__track" style={style}>
          <input
            type="range"
            // The lower thumb goes on top once it is in the upper half, so it can always be grabbed.
            className={`ef-price__input${v.min > (range.min + range.max) / 2 ? ' ef-price__input--front' : ''}`}
            aria-label={i18n._('Minimum monthly premium')}
            aria-valuetext={formatAmount(v.min)}
            min={range.min}
            max={range.max}
            step={range.step}
            value={v.min}
            disabled={disabled}
            onChange={(e) => onChange(moveThumb(value, 'min', Number(e.target.value), range))}
          />
          <input
            type="range"
            className="ef-price__input"
            aria-label={i18n._('Maximum monthly premium')}
            aria-valuetext={formatAmount(v.max)}
            min={range.min}
            max={range.max}
            step={range.step}
            value={v.max}
            disabled={disabled}
            onChange={(e) => onChange(moveThumb(value, 'max', Number(e.target.value), range))}
          />
        </div>
      )}
    </fieldset>
  );
}
