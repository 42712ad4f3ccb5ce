import { PAGES } from "@/lib/http/paths";
import { redirect } from "next/navigation";

export default function AdminHome() {
  redirect(PAGES.adminClients);
}
