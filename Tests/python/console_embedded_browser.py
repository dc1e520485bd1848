"""Walks the console's Embedded pages in headless Chromium: signs in with the token link, opens the
project, follows its crypto customer and its onramp session; saves a screenshot of each page.

Usage: console_embedded_browser.py BASE_URL TOKEN PROJECT_ID CUSTOMER_ID SESSION_ID SCREENSHOT_PREFIX
Prints the page headings, one per line, then the session's transition statuses, then its timeline.
"""
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, token, project, customer, session, prefix = sys.argv[1:7]
driver = chromium.start()


def follow(text, shot):
    page = driver.current_url
    driver.find_element(By.LINK_TEXT, text).click()
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    driver.save_screenshot(f"{prefix}-{shot}.png")
    print(driver.find_element(By.TAG_NAME, "h1").text)


def timeline():
    """The timeline's What column, one line each, prefixed with "timeline: "."""
    cells = driver.find_elements(By.XPATH, "//caption[starts-with(., 'Timeline')]/../tbody/tr/td[2]")
    for cell in cells:
        print("timeline: " + cell.text)


try:
    driver.get(f"{base}/console/login?token={token}")
    WebDriverWait(driver, 60).until(lambda d: d.current_url.endswith("/console"))
    follow(project, "project")
    follow(customer, "customer")
    follow(session, "onramp-session")
    cells = driver.find_elements(By.XPATH, "//caption[starts-with(., 'Transitions')]/../tbody/tr/td[3]")
    print(" ".join(cell.text for cell in cells))
    timeline()
finally:
    driver.quit()
