import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: "Rollout Lens",
  description: "What the trainer trained on, masked, split or cut short.",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/" className="brand" data-testid="nav-home">
            Rollout Lens
          </Link>
          <span className="muted">token capture inspector</span>
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
