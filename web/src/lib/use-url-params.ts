import { useSearchParams } from 'react-router';

/**
 * The page URL's search parameters, with one setter for them all: each entry sets a value, or
 * removes the parameter when the value is empty or undefined. Every filter and view option
 * goes through here, so each change is a new, shareable address.
 */
export function useUrlParams(): [URLSearchParams, (entries: Record<string, string | undefined>) => void, (next: URLSearchParams) => void] {
  const [search, setSearch] = useSearchParams();
  const setParams = (entries: Record<string, string | undefined>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(entries)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setSearch(next);
  };
  return [search, setParams, setSearch];
}
