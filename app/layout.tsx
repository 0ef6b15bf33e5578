import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { ThemeToggle } from "@/components/shared/theme-toggle";
import { THEME_COOKIE, themeChoiceOf } from "@/lib/view";
import "./globals.css";

export const metadata: Metadata = {
  title: "Rollout Lens",
  description: "What the trainer trained on, masked, split or cut short.",
};

// The theme chosen in the top bar comes back in its cookie, so the first HTML already carries it
// (no flash, no script before paint); with none, the stylesheet follows prefers-color-scheme.
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const theme = themeChoiceOf((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <body>
        <header className="topbar">
          <Link href="/" className="brand" data-testid="nav-home">
            Rollout Lens
          </Link>
          <span className="muted">token capture inspector</span>
          <ThemeToggle initial={theme} />
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
