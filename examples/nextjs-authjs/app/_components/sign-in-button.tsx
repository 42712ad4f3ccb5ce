"use client";

import { signIn } from "next-auth/react";

export function SignInButton({ label }: { label: string }) {
  return (
    <button type="button" className="primary" onClick={() => signIn("optigate")}>
      {label}
    </button>
  );
}
