// Not shipped on its own: a second entry point of the build (scripts/build-assets.ts) that
// imports exactly what the browser script takes from React, so esbuild's code splitting puts
// React's runtime into a chunk of its own, cached apart from our code.
export { Component, startTransition, useSyncExternalStore } from 'react'
export { jsx, jsxs, Fragment } from 'react/jsx-runtime'
export { hydrateRoot } from 'react-dom/client'
