import { clampPercent, percentCompleteText } from '../utils/percent';
import '../program.css';

/** The program progress bar with its '{n}% complete' caption (docs/product.md#2-screens-and-routes). */
export function ProgressBar({ percent, label = 'Program progress' }: { percent: unknown; label?: string }) {
  const value = clampPercent(percent);
  const text = percentCompleteText(value);
  return (
    <div className="pg-progress">
      <div
        className="pg-progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={text}
      >
        <div className="pg-progress__fill" style={{ width: `${value}%` }} />
      </div>
      <p className="pg-progress__text" aria-live="polite">
        {text}
      </p>
    </div>
  );
}
