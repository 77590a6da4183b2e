import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ShareApp } from "./share-app.js";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ShareApp />
  </StrictMode>,
);
