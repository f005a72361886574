import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * The Homepage search (GET /index/home/search): a plain GET form to `/?keywords=`, so it works before
 * the script arrives; once hydrated it navigates on the client and the Homepage's loader searches.
 */
export function SearchBox(props: { keywords: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [value, setValue] = useState(props.keywords);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const k = value.trim();
    navigate(k ? `/?keywords=${encodeURIComponent(k)}` : '/');
  };

  return (
    <form
      role="search"
      method="get"
      action="/"
      onSubmit={submit}
      className="mx-4 mt-3 flex h-9 items-center gap-2 rounded-full bg-white px-3"
    >
      <svg
        aria-hidden
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        className="shrink-0 text-black/60"
      >
        <circle cx="11" cy="11" r="7" />
        <path d="M20 20l-3.5-3.5" strokeLinecap="round" />
      </svg>
      <input
        type="search"
        name="keywords"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        maxLength={50}
        enterKeyHint="search"
        placeholder={t`搜索门店、导师、课程`}
        aria-label={t`搜索`}
        className="h-full min-w-0 flex-1 bg-transparent text-[15px] outline-none placeholder:text-black/60"
      />
    </form>
  );
}
