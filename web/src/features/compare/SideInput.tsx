/** One side of the comparison, typed with the indexed versions offered; its error said beside it. */
export function SideInput({ name, value, onChange, error }: { name: string; value: string; onChange: (v: string) => void; error: string | null }) {
  return (
    <label>
      {name}
      <input
        name={name}
        list="known-sides"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby={error ? `${name}-error` : undefined}
      />
      {error && (
        <span className="field-error" id={`${name}-error`} role="alert" data-testid={`${name.replace(' ', '-').toLowerCase()}-error`}>
          {error}
        </span>
      )}
    </label>
  );
}
