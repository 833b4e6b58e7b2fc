{
  "app": {
    "title": "@@title@@",
    "skip_to_content": "Skip to content",
    "main_navigation": "Main",
    "footer": "Made with Wisent."
  },
  "home": {
    "welcome": "Welcome to {{name}}!",
    "lead": "Your app is running. Generate a resource to see the whole stack at work.",
    "next_steps": "Next steps",
    "resources": "Resources"
  }
}
