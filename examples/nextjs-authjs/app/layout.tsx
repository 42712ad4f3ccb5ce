import type { ReactNode } from "react";
import "./globals.css";

export const metadata = { title: "Partner portal · signs in with OptiGate" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}
