"""Opens console pages in headless Chromium at a laptop's 1280 x 900 and says, for each, whether any table
is wider than its frame (a column pushed out of sight) or the page scrolls sideways; saves a screenshot of
each page.

Usage: console_width.py BASE_URL TOKEN SCREENSHOT_PREFIX PATH...
Prints one line per page: "PATH fits" or "PATH overflows: <what>".
"""
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, token, prefix = sys.argv[1:4]
paths = sys.argv[4:]
driver = chromium.start(window="1280,900")

try:
    driver.get(base + "/console/login?token=" + token)
    WebDriverWait(driver, 60).until(lambda d: d.current_url.endswith("/console"))
    for index, path in enumerate(paths):
        driver.get(base + path)
        driver.save_screenshot(f"{prefix}-{index}.png")
        wide = driver.execute_script("""
            const out = [];
            document.querySelectorAll('.scroll').forEach(frame => {
                if (frame.scrollWidth > frame.clientWidth + 1) {
                    out.push((frame.querySelector('caption') || frame).textContent.trim());
                }
            });
            if (document.documentElement.scrollWidth > window.innerWidth + 1) { out.push('the page'); }
            return out;
        """)
        print(f"{path} fits" if not wide else f"{path} overflows: {'; '.join(wide)}")
finally:
    driver.quit()
